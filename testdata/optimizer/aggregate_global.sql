-- An aggregate without GROUP BY returns a row even when nothing matches: the filter stays above it.
SELECT * FROM (SELECT count(*) AS n FROM 'fixtures/orders_sorted.parquet') WHERE n > 0
