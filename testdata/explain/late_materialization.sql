-- Nothing prunes discount = NaN (no nan_count), but late materialization
-- reads the other columns only in pages holding a NaN: the data not read
-- after filtering, and the offset indexes the scan reads to find them.
EXPLAIN ANALYZE SELECT order_id, city, amount FROM 'fixtures/orders_shuffled.parquet' WHERE discount = 'NaN'::DOUBLE;
