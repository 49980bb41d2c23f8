package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// s3Backend reads one object through the AWS SDK, which signs requests
// (SigV4; GCS accepts it with HMAC keys).
type s3Backend struct {
	client      *s3.Client
	bucket, key string
}

func (b *s3Backend) get(ctx context.Context, rng string, v validator) (*response, error) {
	in := &s3.GetObjectInput{Bucket: aws.String(b.bucket), Key: aws.String(b.key)}
	if rng != "" {
		in.Range = aws.String(rng)
	}
	if v.etag != "" {
		in.IfMatch = aws.String(v.etag)
	}
	out, err := b.client.GetObject(ctx, in)
	if err != nil {
		return nil, sdkError(err)
	}
	r := &response{body: out.Body, length: -1, etag: aws.ToString(out.ETag), contentRange: aws.ToString(out.ContentRange)}
	if out.ContentLength != nil {
		r.length = *out.ContentLength
	}
	return r, nil
}

// sdkError turns an SDK error into a statusError where the server
// answered, keeping only the status and the S3 error code: SDK messages
// are long, and ours name the URL and range already.
func sdkError(err error) error {
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.Response != nil && re.HTTPStatusCode() >= 300 {
		se := &statusError{status: re.HTTPStatusCode()}
		var api smithy.APIError
		if errors.As(err, &api) {
			se.code = api.ErrorCode()
		}
		return se
	}
	return err
}

// backendFor returns the backend serving loc.
func (st *Store) backendFor(ctx context.Context, loc Location) (backend, error) {
	switch loc.Scheme {
	case "http", "https":
		st.mu.Lock()
		c := st.client
		st.mu.Unlock()
		return &httpBackend{client: c, url: loc.Raw}, nil
	case "s3", "gs":
		if loc.Bucket == "" {
			return nil, fmt.Errorf("storage: %s: %w: no bucket in the URL", loc.Raw, ErrUnsupported)
		}
		c, err := st.s3Client(ctx, st.secretFor(loc))
		if err != nil {
			return nil, fmt.Errorf("storage: %s: %w", loc.Raw, err)
		}
		return &s3Backend{client: c, bucket: loc.Bucket, key: loc.Key}, nil
	}
	return nil, fmt.Errorf("storage: %s: %w", loc.Raw, ErrUnsupported)
}

// s3Client returns the client for a secret's configuration, made once.
func (st *Store) s3Client(ctx context.Context, sec *Secret) (*s3.Client, error) {
	st.mu.Lock()
	// The key holds the secret's fields; it stays inside the store.
	key := fmt.Sprintf("%#v|%v", *sec, sec.UseSSL != nil && *sec.UseSSL)
	if c, ok := st.clients[key]; ok {
		st.mu.Unlock()
		return c.(*s3.Client), nil
	}
	httpClient := st.client
	st.mu.Unlock()

	var creds aws.CredentialsProvider = aws.AnonymousCredentials{}
	region := sec.region()
	switch {
	case sec.Provider == "credential_chain":
		opts := []func(*config.LoadOptions) error{}
		if sec.Region != "" {
			opts = append(opts, config.WithRegion(sec.Region))
		}
		if sec.Profile != "" {
			opts = append(opts, config.WithSharedConfigProfile(sec.Profile))
		}
		cfg, err := config.LoadDefaultConfig(ctx, opts...)
		if err != nil {
			return nil, fmt.Errorf("%w: loading the AWS credential chain: %w", ErrSecret, err)
		}
		creds = cfg.Credentials
		if sec.Region == "" && cfg.Region != "" {
			region = cfg.Region
		}
	case sec.KeyID != "":
		creds = credentials.NewStaticCredentialsProvider(sec.KeyID, sec.Secret, sec.SessionToken)
	}
	cfg := aws.Config{
		Region:      region,
		Credentials: creds,
		HTTPClient:  httpClient,
		// Retries are ours: counted, reported, bounded by the settings.
		Retryer: func() aws.Retryer { return aws.NopRetryer{} },
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if sec.Endpoint != "" || sec.Type == "gcs" {
			ep := sec.endpoint()
			if !strings.Contains(ep, "://") {
				scheme := "https://"
				if !sec.useSSL() {
					scheme = "http://"
				}
				ep = scheme + ep
			}
			o.BaseEndpoint = aws.String(ep)
		}
		o.UsePathStyle = sec.URLStyle == "path" || sec.URLStyle == "" && sec.Type == "gcs"
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	st.mu.Lock()
	st.clients[key] = client
	st.mu.Unlock()
	return client, nil
}
