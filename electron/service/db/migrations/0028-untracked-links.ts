// 0028: a campaign may send its links untracked (track_links = 0): each written in the text as its
// own address, with its UTM tags when it asked for them, instead of a short link; no code, no
// click. Campaigns made before keep tracking.
export default `
ALTER TABLE campaigns ADD COLUMN track_links INTEGER NOT NULL DEFAULT 1 CHECK (track_links IN (0, 1));
`;
