-- A LIMIT without WHERE reads the first page of each column of the first
-- row group: the rest of the plan is not read after LIMIT.
EXPLAIN ANALYZE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 3;
-- Without ANALYZE the plan cannot know where the LIMIT stops the scan: it
-- says so instead of a share skipped.
EXPLAIN SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 3;
EXPLAIN SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE order_id < 5000 LIMIT 10;
-- A sorted limit on the file's sort column reads one row group, and in it
-- the one page of the key whose rows alone reach the limit: its page index
-- proves every other page sorts after them.
EXPLAIN ANALYZE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' ORDER BY order_id DESC LIMIT 3;
-- On a shuffled file the rows read first bound the rest: the pages of the
-- key whose maximum cannot beat the rows held are skipped.
EXPLAIN ANALYZE SELECT order_id, amount FROM 'fixtures/orders_shuffled.parquet' ORDER BY amount DESC LIMIT 3;
-- The key is read first: the other columns are read only in the pages
-- holding a row that can still beat the rows held. With a WHERE, the pages
-- holding no row it passes are left to it, the others to top-k.
EXPLAIN ANALYZE SELECT order_id, city, amount FROM 'fixtures/orders_shuffled.parquet' WHERE status = 'returned' ORDER BY amount DESC LIMIT 3;
