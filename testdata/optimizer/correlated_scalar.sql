-- A correlated scalar aggregate is a LEFT join with the subquery grouped by its side of the correlation; an outer row without a group takes the value over no rows.
SELECT a.order_id, (SELECT count(*) FROM 'fixtures/statistics.parquet' b WHERE b.city = a.city AND b.order_id > 9) AS n FROM 'fixtures/statistics.parquet' a WHERE a.order_id < 6
