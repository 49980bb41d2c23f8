package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The benchmark's files, made by the fixture generator. Every file has a
// page index, Bloom filters on customer_id and city, row groups of 128Ki
// rows and pages of pageRows rows.
const (
	rows1M    = 1_000_000
	rows10M   = 10_000_000
	pageRows  = 2000
	splitInto = 16
	// customers is the customer pool of the files: large enough that
	// GROUP BY customer_id makes about half a million groups.
	customers = 800_000
)

// A fileSpec is one run of the generator and the files it leaves in dir.
type fileSpec struct {
	dir  string
	args []string
	// files maps the placeholders the queries use to the paths made.
	files map[string]string
}

// fileSet returns the generator runs under dataDir: the 1M-row files
// always, the 10M-row file with scale. S3 rows would add placeholders bound
// to URLs here.
func fileSet(dataDir string, scale bool) []fileSpec {
	dir1M := filepath.Join(dataDir, "orders-1m")
	sorted := filepath.Join(dir1M, "orders_sorted.parquet")
	shuffled := filepath.Join(dir1M, "orders_shuffled.parquet")
	parts := filepath.Join(dir1M, "parts")
	common := []string{"-big-page-rows", strconv.Itoa(pageRows), "-big-customers", strconv.Itoa(customers)}
	specs := []fileSpec{{
		dir: dir1M,
		args: append([]string{"-big", strconv.Itoa(rows1M), "-big-out", sorted,
			"-big-shuffled-out", shuffled, "-big-split-out", parts, "-big-split", strconv.Itoa(splitInto)}, common...),
		files: map[string]string{
			"{sorted}":   sorted,
			"{shuffled}": shuffled,
			"{parts}":    filepath.Join(parts, "*.parquet"),
		},
	}}
	if scale {
		dir10M := filepath.Join(dataDir, "orders-10m")
		sorted10M := filepath.Join(dir10M, "orders_sorted.parquet")
		specs = append(specs, fileSpec{
			dir:   dir10M,
			args:  append([]string{"-big", strconv.Itoa(rows10M), "-big-out", sorted10M}, common...),
			files: map[string]string{"{sorted10m}": sorted10M},
		})
	}
	return specs
}

// stampName is the file that records, after a generator run succeeded, the
// arguments it ran with; a directory whose stamp matches is not made again.
const stampName = "GENERATED"

// ensureFiles runs the generator (genDir: fixtures/gen) for every spec whose
// files are missing or were made with other arguments, and returns the
// placeholders of all specs.
func ensureFiles(genDir string, specs []fileSpec, log io.Writer) (map[string]string, error) {
	files := map[string]string{}
	for _, s := range specs {
		for k, v := range s.files {
			files[k] = v
		}
		// The stamp names paths relative to the directory, so a copied data
		// directory is reused.
		stamp := strings.ReplaceAll(strings.Join(s.args, " "), s.dir, ".") + "\n"
		if b, err := os.ReadFile(filepath.Join(s.dir, stampName)); err == nil && string(b) == stamp {
			continue
		}
		if err := os.RemoveAll(s.dir); err != nil {
			return nil, fmt.Errorf("%w: %w", errGenerate, err)
		}
		for _, p := range s.files {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, fmt.Errorf("%w: %w", errGenerate, err)
			}
		}
		fmt.Fprintf(log, "generating %s (go run . %s in %s)\n", s.dir, strings.Join(s.args, " "), genDir)
		cmd := exec.Command("go", append([]string{"run", "."}, s.args...)...)
		cmd.Dir = genDir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("%w: %s: %w\n%s", errGenerate, s.dir, err, out.Bytes())
		}
		if err := os.WriteFile(filepath.Join(s.dir, stampName), []byte(stamp), 0o644); err != nil {
			return nil, fmt.Errorf("%w: %w", errGenerate, err)
		}
	}
	return files, nil
}

// findGenerator walks up from dir to the checkout holding fixtures/gen.
func findGenerator(dir string) (string, error) {
	for {
		gen := filepath.Join(dir, "fixtures", "gen")
		if _, err := os.Stat(filepath.Join(gen, "go.mod")); err == nil {
			return gen, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w: fixtures/gen not found above the working directory", errGenerate)
		}
		dir = parent
	}
}

// fileAnswer is a CSV query's answer: the file's lines.
func fileAnswer(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), nil
}
