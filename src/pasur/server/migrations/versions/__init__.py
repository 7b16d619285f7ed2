"""One file a schema version, each upgrading from the one before."""
