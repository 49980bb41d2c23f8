-- A filter and a count through a view read what they read on the file.
CREATE VIEW v AS SELECT * FROM 'fixtures/orders_sorted.parquet';
SELECT count(*) FROM v WHERE order_id < 1000
