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

// isPartition reports whether input column i of a scan comes from the
// paths (a hive partition) rather than from the files.
func isPartition(scan *planner.Scan, i int) bool { return scan.PartitionOf(i) != nil }
