// 0024: how many direct sends (API and panel, not a campaign's batches) each account has, for the
// total of the Messages page's "by send" view (messaging/sends.ts). Counting them on the
// (account_id, id) index read 1.8 million entries at a year of a busy shop: 80 ms, the slowest
// read of the page. Triggers keep it in the same statement as every insert and delete of a send
// (acceptance, retention, an account's removal by cascade), whichever code does it; a send's
// account and origin never change. An account with no direct send has no row.
export default `
CREATE TABLE send_tallies (
  account_id  INTEGER PRIMARY KEY,
  sends       INTEGER NOT NULL
) STRICT;

INSERT INTO send_tallies (account_id, sends)
SELECT account_id, count(*) FROM sends WHERE origin <> 'campaign' GROUP BY account_id;

CREATE TRIGGER send_tallies_insert AFTER INSERT ON sends
WHEN NEW.origin <> 'campaign'
BEGIN
  INSERT INTO send_tallies (account_id, sends) VALUES (NEW.account_id, 1)
  ON CONFLICT (account_id) DO UPDATE SET sends = sends + 1;
END;

CREATE TRIGGER send_tallies_delete AFTER DELETE ON sends
WHEN OLD.origin <> 'campaign'
BEGIN
  UPDATE send_tallies SET sends = sends - 1 WHERE account_id = OLD.account_id;
  DELETE FROM send_tallies WHERE account_id = OLD.account_id AND sends = 0;
END;
`;
