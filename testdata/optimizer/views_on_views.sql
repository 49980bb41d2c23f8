-- Views on views on a glob: all inlined, the filter prunes the scan.
CREATE VIEW a AS SELECT order_id, customer_id, amount FROM 'fixtures/orders_*.parquet';
CREATE VIEW b AS SELECT order_id AS id, amount FROM a WHERE customer_id > 100;
SELECT max(amount) FROM b WHERE id >= 19990
