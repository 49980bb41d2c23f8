-- The issue's example: statistics skip four row groups, the page index
-- narrows the fifth to one page; ANALYZE reads exactly what was planned.
EXPLAIN SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990;
EXPLAIN ANALYZE SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990;
EXPLAIN ANALYZE VERBOSE SELECT order_id, status FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990;
-- Conditions no mechanism can use say why, and how to write them so one can.
EXPLAIN SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id + 1 < 1000 AND city = 'Paris';
