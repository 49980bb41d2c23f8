-- file_row_number is known from the row groups' row counts: positions
-- outside a row group skip it, and the offset index narrows the rest to
-- the pages holding the positions asked for.
EXPLAIN ANALYZE SELECT file_row_number, order_id FROM read_parquet('fixtures/orders_shuffled.parquet', file_row_number = true) WHERE file_row_number BETWEEN 5000 AND 5003;
-- Row groups every position of which satisfies the WHERE are counted unread.
EXPLAIN ANALYZE SELECT count(*) FROM read_parquet('fixtures/orders_shuffled.parquet', file_row_number = true) WHERE file_row_number >= 6000;
-- Across files, positions restart in each.
EXPLAIN SELECT order_id FROM read_parquet('fixtures/orders_*.parquet', file_row_number = true) WHERE file_row_number > 19990 OR file_row_number < 10;
