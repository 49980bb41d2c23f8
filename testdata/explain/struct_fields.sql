-- A predicate on a struct field prunes with that leaf's statistics, page
-- index, Bloom filter and dictionary; EXPLAIN names the leaf.
EXPLAIN ANALYZE SELECT id, address.city FROM 'fixtures/structs.parquet' WHERE address.city = 'Oslo';
EXPLAIN ANALYZE SELECT count(*) FROM 'fixtures/structs.parquet' WHERE address.zip BETWEEN 11000 AND 11100;
EXPLAIN ANALYZE SELECT id FROM 'fixtures/structs.parquet' WHERE meta.inner.day = DATE '2022-06-01' AND meta['inner']['score'] > 0;
EXPLAIN ANALYZE SELECT id FROM 'fixtures/structs.parquet' WHERE address.zip = 13001;
EXPLAIN SELECT id FROM 'fixtures/structs.parquet' WHERE address IS NULL OR pt.x + pt.y > 990;
EXPLAIN SELECT id FROM 'fixtures/nested.parquet' WHERE address.city = 'Zzz';
