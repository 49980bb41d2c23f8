-- Pruning on a shredded VARIANT field of fixtures/variant_shredded.parquet:
-- row group 0 is fully shredded and its a.typed_value statistics exclude
-- the value, so it is skipped; row group 1 keeps the page whose residual
-- a.value is not null (id 150 holds the string '5'); row group 2 keeps the
-- page whose top-level value is not null; a field that is not shredded, or
-- a cast the typed_value's statistics cannot bound, prunes nothing and says so.
EXPLAIN SELECT id FROM 'fixtures/variant_shredded.parquet' WHERE variant_extract(v, 'a')::INTEGER > 297;
EXPLAIN SELECT id FROM 'fixtures/variant_shredded.parquet' WHERE v.a::INTEGER = 5;
EXPLAIN SELECT id FROM 'fixtures/variant_shredded.parquet' WHERE variant_extract(v, 'c')::INTEGER = 5;
EXPLAIN SELECT id FROM 'fixtures/variant_shredded.parquet' WHERE variant_extract(v, 'b')::INTEGER = 5;
-- OR and NOT of shredded comparisons combine like any other leaf; a nested
-- key needs every residual on its path null; a glob of two files judges each
-- by its own shredding (variant_typed_b shreds i as BIGINT, and no d).
EXPLAIN SELECT id FROM 'fixtures/variant_typed.parquet' WHERE v.i::INTEGER < 50 OR NOT (v.d::DOUBLE >= 10);
EXPLAIN SELECT id FROM 'fixtures/variant_typed.parquet' WHERE v.o.x::BIGINT = 5;
EXPLAIN SELECT count(*) FROM read_parquet(['fixtures/variant_typed.parquet', 'fixtures/variant_typed_b.parquet']) WHERE v.i::INTEGER > 650 AND v.d::DOUBLE > 60;
