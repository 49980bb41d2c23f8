-- UNION without ALL compares whole rows: the filter moves into both sides, no column is pruned.
SELECT customer_id FROM (SELECT customer_id, status FROM 'fixtures/orders_sorted.parquet' UNION SELECT customer_id, status FROM 'fixtures/orders_shuffled.parquet') WHERE status = 'returned'
