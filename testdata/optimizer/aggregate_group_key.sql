-- A condition on a grouping key moves below the aggregate; one on an aggregate stays above it.
SELECT * FROM (SELECT customer_id, sum(amount) AS total FROM 'fixtures/orders_sorted.parquet' GROUP BY customer_id) WHERE customer_id < 1000 AND total > 10
