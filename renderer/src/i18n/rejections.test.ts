// The review's words for an invalid number's problem are the rejection report's (written by the
// core from shared/rejections.ts): one text in both places, in each language.
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fa } from './fa';
import { phoneProblemTexts } from '../../../shared/rejections';
import { PHONE_PROBLEMS } from '../../../shared/phone';

describe('phone problems in the window and in the reports', () => {
  it.each([
    ['en', en],
    ['fa', fa],
  ] as const)('%s says each problem as the report does', (language, texts) => {
    expect(Object.keys(texts.import.problems).sort()).toEqual([...PHONE_PROBLEMS].sort());
    expect(texts.import.problems).toEqual(phoneProblemTexts[language]);
  });
});
