-- Statistics whose bounds are refused or carry caveats, one note per
-- column and caveat.
EXPLAIN SELECT * FROM 'fixtures/statistics.parquet' WHERE temp_c > 1000 AND coupon <> 'VIP20';
