-- VERIFY runs with every mechanism and with none and compares: in order
-- with ORDER BY, as multisets without.
EXPLAIN VERIFY SELECT order_id, amount FROM 'fixtures/orders_shuffled.parquet' WHERE amount > 900 ORDER BY amount DESC LIMIT 5;
EXPLAIN VERIFY SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 431 AND 440 OR customer_id = 424242;
