-- VERBOSE: one line per page of the predicate's columns in kept row
-- groups, with the page index's decision per condition; the ranges to read.
EXPLAIN VERBOSE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 431 AND 440 OR customer_id = 424242;
