-- Mechanisms switched off are shown as disabled; with the Bloom filter
-- off, the dictionary proves the city absent.
SET bloom_filter = false;
SET page_index = false;
EXPLAIN SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE city = 'Atlantis';
EXPLAIN ANALYZE SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE city = 'Atlantis';
