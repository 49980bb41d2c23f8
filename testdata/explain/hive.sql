-- The hive path rules out year=2023 by its directory alone: the file is
-- never opened.
EXPLAIN SELECT count(*) FROM 'hive/*/*.parquet' WHERE year = 2024 AND order_id < 100;
EXPLAIN ANALYZE SELECT year, count(*) FROM 'hive/*/*.parquet' WHERE year = 2024 AND order_id < 100 GROUP BY year;
