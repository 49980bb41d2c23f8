-- A correlated EXISTS and IN are semi joins; a condition of the subquery on the outer row alone goes below the semi join, to the left side.
SELECT a.order_id FROM 'fixtures/statistics.parquet' a WHERE EXISTS (SELECT 1 FROM 'fixtures/statistics.parquet' b WHERE b.city = a.city AND a.delta > 0) AND a.note IN (SELECT c.note FROM 'fixtures/statistics.parquet' c WHERE c.order_id <> a.order_id)
