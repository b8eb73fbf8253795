// Command ferretdb is a minimal MongoDB-wire-protocol server for integration
// tests: embedded FerretDB v1 (github.com/FerretDB/FerretDB/ferretdb) with the
// SQLite backend.
//
// Usage:
//
//	ferretdb -listen 127.0.0.1:27017 -data /tmp/ferretdb-data
//
// It logs warnings and errors to stderr, prints a single "ready" line to stdout
// once the listener is bound, and exits 0 on SIGTERM/SIGINT.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	os.Exit(run())
}

func run() int {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on (host:port)")
	data := flag.String("data", "", "SQLite data directory (created if missing; required)")
	logLevel := flag.String("log-level", "warn", "log level: debug, info, warn, error")
	flag.Parse()

	if *data == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: ferretdb -listen HOST:PORT -data DIR [-log-level warn]")
		return 2
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: invalid -log-level %q: %v\n", *logLevel, err)
		return 2
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)

	dir, err := filepath.Abs(*data)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		return 1
	}
	if err = os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: cannot create data directory: %v\n", err)
		return 1
	}

	// file:///abs/dir/ — FerretDB requires the "file" scheme and a trailing slash;
	// url.URL takes care of escaping unusual characters in the path.
	sqliteURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		return 1
	}

	// ferretdb.New has already bound the TCP listener, so connections are
	// queued by the kernel from now on and accepted once Run starts.
	fmt.Printf("ferretdb ready on mongodb://%s/\n", *listen)

	err = f.Run(ctx)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(os.Stderr, "ferretdb: %v\n", err)
		return 1
	}

	return 0
}
