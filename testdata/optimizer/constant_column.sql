-- A constant column of a subquery folds the filter on it: k = 5 with k = 3 is FALSE, which prunes every row group.
SELECT order_id FROM (SELECT 3 AS k, order_id FROM 'fixtures/orders_sorted.parquet') WHERE k = 5
