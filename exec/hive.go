package exec

import "github.com/pqsql/pqsql/planner"

// fillPartitions sets the hive partition columns the query reads in a
// batch of the file at path: each is the file's value, on every row. The
// planner has pruned the files whose values rule them out.
func fillPartitions(scan *planner.Scan, path string, b *batch) {
	if len(scan.Partitions) == 0 {
		return
	}
	vals := scan.PartitionValues(path)
	for i, p := range scan.Partitions {
		if p.Index >= len(b.cols) || !scan.Needed[p.Index] || vals == nil {
			continue
		}
		v := newVector(p.Type, b.n)
		for range b.n {
			v.appendDatum(vals[i])
		}
		b.cols[p.Index] = v
	}
}

// isVirtual reports whether input column i of a scan comes from the paths
// (a hive partition) or from the rows' positions (file_row_number) rather
// than from the files' values.
func isVirtual(scan *planner.Scan, i int) bool {
	return scan.PartitionOf(i) != nil || scan.HasRowNumber && scan.RowNumber == i
}

// fillRowNumber sets the file_row_number column, when the query reads it,
// in a batch of the rows in runs of a row group whose first row is the
// file's row start.
func fillRowNumber(scan *planner.Scan, start int64, runs []rowRange, b *batch) {
	if !scan.HasRowNumber || scan.RowNumber >= len(b.cols) || !scan.Needed[scan.RowNumber] {
		return
	}
	v := newVector(Type{ID: planner.TypeBigInt}, b.n)
	for _, r := range runs {
		for row := r.First; row < r.End; row++ {
			v.Int = append(v.Int, start+row)
		}
	}
	b.cols[scan.RowNumber] = v
}
