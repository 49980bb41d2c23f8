-- The window stage sits between the rows it reads (after WHERE, or after
-- GROUP BY and HAVING) and the projection; QUALIFY filters its output.
EXPLAIN SELECT city, sum(delta) OVER (PARTITION BY city) AS s FROM 'fixtures/statistics.parquet' WHERE order_id > 2 QUALIFY rank() OVER (ORDER BY city) < 3;
EXPLAIN SELECT city, count(*), rank() OVER (ORDER BY count(*) DESC) FROM 'fixtures/statistics.parquet' GROUP BY city HAVING count(*) > 0;
EXPLAIN SELECT DISTINCT ON (city) city, order_id FROM 'fixtures/statistics.parquet' ORDER BY city, order_id DESC;
