-- EXPLAIN (FORMAT MAP): one file as a grid of pages (row groups down,
-- columns across), a glob as a line per file, 100 columns wide and without
-- colour off a terminal. ANALYZE marks what the run read: a LIMIT leaves
-- planned pages unread.
EXPLAIN (FORMAT MAP) SELECT order_id, customer_id, city FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 431 AND 440 OR customer_id = 424242;
EXPLAIN (FORMAT MAP) SELECT order_id, status FROM 'fixtures/orders_shuffled.parquet' WHERE order_id < 100;
EXPLAIN (FORMAT MAP) SELECT * FROM 'fixtures/orders_s*.parquet' WHERE order_id < 5000;
EXPLAIN (FORMAT MAP) SELECT count(*) FROM 'hive/*/*.parquet' WHERE year = 2024 AND order_id < 100;
EXPLAIN (FORMAT MAP) ANALYZE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 3000 AND order_id < 5000 LIMIT 3;
-- A chunk planned whole is read in part when a LIMIT stops the scan: the
-- map of the run marks its first page read and the later ones not.
EXPLAIN (FORMAT MAP) ANALYZE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 3;
