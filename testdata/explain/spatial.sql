-- Spatial predicates on geo_points.parquet, which carries a GeoParquet file
-- bbox and covering but no geospatial statistics or nan_count: a query box
-- outside the file bbox skips every row group by the spatial mechanism; one
-- inside it keeps everything (a NaN may hide in the covering), and NOT of a
-- spatial predicate is never judged on boxes.
EXPLAIN SELECT id FROM 'fixtures/geo_points.parquet' WHERE ST_Intersects(geometry, ST_MakeEnvelope(0, 60, 1, 61));
EXPLAIN ANALYZE SELECT count(*) FROM 'fixtures/geo_points.parquet' WHERE ST_DWithin(ST_Point(200, 0), geometry, 10);
EXPLAIN SELECT id FROM 'fixtures/geo_points.parquet' WHERE ST_Intersects(geometry, ST_MakeEnvelope(13, 52.3, 13.8, 52.7));
EXPLAIN SELECT id FROM 'fixtures/geo_points.parquet' WHERE NOT ST_Intersects(geometry, ST_MakeEnvelope(0, 60, 1, 61));
-- The MAP marks pages a spatial predicate skips with its own mark.
EXPLAIN (FORMAT MAP) SELECT id FROM 'fixtures/geo_points.parquet' WHERE ST_Intersects(geometry, ST_MakeEnvelope(0, 60, 1, 61));
