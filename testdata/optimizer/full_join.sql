-- A WHERE that is never TRUE on rows whose left side is NULL-extended turns the FULL JOIN into a LEFT JOIN, and then goes down the left side.
SELECT count(*) FROM 'fixtures/statistics.parquet' a FULL JOIN 'fixtures/statistics.parquet' b ON a.coupon = b.coupon WHERE a.order_id < 5
