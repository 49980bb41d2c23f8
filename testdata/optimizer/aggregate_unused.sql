-- Aggregates of a view that the query does not read are dropped, and with them the columns only they read.
CREATE VIEW totals AS SELECT customer_id, sum(amount) AS spent, max(discount) AS best, count(*) AS n FROM 'fixtures/orders_sorted.parquet' GROUP BY customer_id;
SELECT customer_id, n FROM totals WHERE customer_id < 200000 AND n > 1
