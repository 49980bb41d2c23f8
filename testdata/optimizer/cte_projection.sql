-- A CTE that renames and computes columns is inlined; the filter reaches the scan.
WITH c(id, doubled) AS (SELECT order_id, amount * 2 FROM 'fixtures/orders_sorted.parquet' WHERE status = 'shipped')
SELECT id FROM c WHERE doubled > 3000 AND id < 500
