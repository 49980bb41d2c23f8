-- A bound computed with an interval folds to a constant, which prunes like
-- a literal; a column moved by an interval is judged by no mechanism, so
-- every row group is kept.
EXPLAIN SELECT count(*) FROM 'fixtures/orders_sorted.parquet' WHERE order_date >= DATE '2024-12-01' + INTERVAL 1 DAY;
EXPLAIN SELECT count(*) FROM 'fixtures/orders_sorted.parquet' WHERE order_date < TIMESTAMP '2024-03-01 00:00:00' - INTERVAL '1 month 12 hours';
EXPLAIN SELECT count(*) FROM 'fixtures/orders_sorted.parquet' WHERE order_date + INTERVAL 30 DAY > DATE '2024-12-01';
