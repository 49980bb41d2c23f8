-- Subqueries in FROM nested three deep become one scan.
SELECT b FROM (SELECT a + 1 AS b FROM (SELECT order_id AS a, city FROM 'fixtures/orders_sorted.parquet') WHERE city = 'Paris') WHERE b BETWEEN 10 AND 20
