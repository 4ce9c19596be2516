// Persian (۰-۹) and Arabic-Indic (٠-٩) digits to ASCII, for the lenient paths (imports, the UI);
// the API's receivers rule is strict and does not use this.

const PERSIAN_ZERO = 0x06f0;
const ARABIC_ZERO = 0x0660;

export function toAsciiDigits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= PERSIAN_ZERO && code <= PERSIAN_ZERO + 9) out += String.fromCharCode(48 + code - PERSIAN_ZERO);
    else if (code >= ARABIC_ZERO && code <= ARABIC_ZERO + 9) out += String.fromCharCode(48 + code - ARABIC_ZERO);
    else out += text[i];
  }
  return out;
}

export function toPersianDigits(text: string | number): string {
  return String(text).replace(/[0-9]/g, (d) => String.fromCharCode(PERSIAN_ZERO + d.charCodeAt(0) - 48));
}
