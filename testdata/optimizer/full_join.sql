-- Nothing moves through a FULL JOIN: either side may be NULL-extended.
SELECT count(*) FROM 'fixtures/statistics.parquet' a FULL JOIN 'fixtures/statistics.parquet' b ON a.coupon = b.coupon WHERE a.order_id < 5
