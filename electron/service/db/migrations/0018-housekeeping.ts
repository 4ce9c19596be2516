// 0018: housekeeping (placeholder; filled by the housekeeping work of issue 16).
export default `SELECT 1;`;
