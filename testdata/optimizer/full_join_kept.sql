-- Nothing moves through a FULL JOIN whose WHERE may hold on NULL-extended rows of either side.
SELECT count(*) FROM 'fixtures/statistics.parquet' a FULL JOIN 'fixtures/statistics.parquet' b ON a.coupon = b.coupon WHERE coalesce(a.order_id, b.order_id) < 5 OR a.order_id IS NULL
