// 0012: API keys are stored as HMAC(workspace secret, SHA-256(key)) (accounts/keys.ts). The secret
// is a file outside the database, which SQL cannot read: this step only records that the stored
// digests are still plain SHA-256 (a fingerprint of NULL). The core seals them with the secret
// right after the migrations, in one transaction, and records the secret's fingerprint
// (Accounts.adoptKeyHashes); a restored backup from before 0012 is sealed the same way.
export default `
CREATE TABLE api_key_hashing (
  id                  INTEGER PRIMARY KEY CHECK (id = 1),
  secret_fingerprint  TEXT
) STRICT;
INSERT INTO api_key_hashing (id, secret_fingerprint) VALUES (1, NULL);
`;
