// The numbered migrations, in order. Append only: a released migration is never edited.
import core from './0001-core';

export interface Migration {
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [{ name: '0001-core', sql: core }];
