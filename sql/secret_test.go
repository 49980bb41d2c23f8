package sql

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSecret(t *testing.T) {
	st, err := Parse(`CREATE OR REPLACE SECRET s1 (TYPE s3, KEY_ID 'AK', SECRET 'sk', REGION 'eu-west-1', ENDPOINT 'localhost:9000', URL_STYLE 'path', USE_SSL false, SCOPE 's3://b/p')`)
	if err != nil {
		t.Fatal(err)
	}
	cs := st.(*CreateSecret)
	if cs.Name != "s1" || !cs.OrReplace || cs.Options["type"] != "s3" || cs.Options["secret"] != "sk" || cs.Options["use_ssl"] != "false" || cs.Options["scope"] != "s3://b/p" {
		t.Fatalf("%+v", cs)
	}
	st, err = Parse(`CREATE TEMPORARY SECRET IF NOT EXISTS (TYPE gcs, PROVIDER credential_chain, SCOPE ['gs://a', 'gs://b'])`)
	if err != nil {
		t.Fatal(err)
	}
	if cs := st.(*CreateSecret); cs.Name != "" || !cs.IfNotExists || cs.Options["scope"] != "gs://a,gs://b" {
		t.Fatalf("%+v", cs)
	}
	st, err = Parse(`DROP SECRET IF EXISTS s1`)
	if err != nil {
		t.Fatal(err)
	}
	if ds := st.(*DropSecret); ds.Name != "s1" || !ds.IfExists {
		t.Fatalf("%+v", ds)
	}
}

// TestParseSecretErrors checks the errors, and that none shows a value.
func TestParseSecretErrors(t *testing.T) {
	const key = "TopSecretValue123"
	for _, q := range []string{
		`CREATE SECRET s (TYPE s3, SECRET '` + key + `' KEY_ID 'x')`,
		`CREATE SECRET s (TYPE s3, SECRET '` + key + `', SECRET '` + key + `')`,
		`CREATE SECRET s (TYPE s3, SECRET ` + key + ` + 1)`,
		`CREATE SECRET s (TYPE s3, SECRET '` + key + `'`,
	} {
		_, err := Parse(q)
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: err = %v, want ErrSyntax", q, err)
			continue
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("%s: error %q shows the value", q, err)
		}
	}
}

func TestHoldsSecret(t *testing.T) {
	for q, want := range map[string]bool{
		"CREATE SECRET (TYPE s3, KEY_ID 'a', SECRET 'b')": true,
		"SET s3_secret_access_key = 'x'":                  true,
		"SELECT 1; create persistent secret x (type s3)":  true,
		"SET s3_region = 'us-east-1'":                     false,
		"SELECT secret FROM 'f.parquet'":                  false,
	} {
		if got := HoldsSecret(q); got != want {
			t.Errorf("HoldsSecret(%q) = %v, want %v", q, got, want)
		}
	}
}
