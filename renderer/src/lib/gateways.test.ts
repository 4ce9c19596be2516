import { describe, expect, it } from 'vitest';
import {
  contentTypeChoice,
  explanationOf,
  formChanged,
  formOf,
  formProblem,
  GATEWAY_FIELDS,
  gatewayFields,
  gatewayInputOf,
  gatewayName,
  gatewaysFor,
  gatewayTitle,
  insertAt,
  keyForgottenOnSave,
  type GatewayForm,
} from './gateways';
import { GATEWAY_KINDS, isUpstream, type GatewayKind } from '../../../shared/gateways';
import type { Line } from '../../../shared/ipc/contracts/accounts';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';

describe('gateways as the window names them', () => {
  it('names each provider in the UI’s language, standing alone with a capital in English', () => {
    expect(gatewayName('kavenegar-v1', 'fa')).toBe('کاوه‌نگار');
    expect(gatewayName('simulator', 'en')).toBe('the simulator');
    expect(gatewayTitle('simulator', 'en')).toBe('The simulator');
    expect(gatewayTitle('simulator', 'fa')).toBe('شبیه‌ساز');
    expect(gatewayTitle('najva-v2', 'en')).toBe('Najva');
  });

  it('offers only the gateways that carry the line’s kind', () => {
    expect(gatewaysFor('sms')).toEqual([
      'simulator',
      'kavenegar-v1',
      'najva-v2',
      'smsir',
      'ippanel-edge',
      'http-gateway',
    ]);
    expect(gatewaysFor('bale')).toEqual(['simulator', 'najva-v2', 'bale-safir']);
    // Nothing to choose: the line's row offers no gateway button.
    expect(gatewaysFor('rubika')).toEqual(['simulator']);
  });

  it('explains the pausing codes one by one, the retryable ones together, any other as a wrong address', () => {
    expect(explanationOf(418)).toBe('418');
    expect(explanationOf(403)).toBe('403');
    expect(explanationOf(416)).toBe('416');
    expect(explanationOf(429)).toBe('retry');
    expect(explanationOf(503)).toBe('retry');
    expect(explanationOf(404)).toBe('other');
    expect(explanationOf(405)).toBe('other');
  });
});

const simulator: Line['gateway'] = {
  kind: 'simulator',
  base_url: null,
  sender: null,
  rate_per_second: 5,
  key_set: false,
  http: null,
};

const kannel: Line['gateway'] = {
  kind: 'http-gateway',
  base_url: 'http://127.0.0.1:13013/cgi-bin/sendsms?to={to}&text={text}&password={key}',
  sender: '3000123',
  rate_per_second: 20,
  key_set: true,
  http: { method: 'GET', body: '', content_type: 'application/x-www-form-urlencoded', success: '' },
};

describe('the gateway dialog’s fields, one table by kind', () => {
  it('asks every provider kind for its own fields; the simulator for none', () => {
    for (const kind of GATEWAY_KINDS) {
      if (!isUpstream(kind)) expect(gatewayFields(kind)).toBeNull();
      else expect(gatewayFields(kind)).not.toBeNull();
    }
    expect(gatewayFields('smsir')).toEqual({ address: 'provider', request: false });
    expect(gatewayFields('bale-safir')).toEqual({ address: 'provider', request: false });
    expect(gatewayFields('http-gateway')).toEqual({ address: 'template', request: true });
    // Written ahead of its kind: one entry, like any provider's.
    expect(gatewayFields('ippanel-edge' as GatewayKind)).toEqual({ address: 'provider', request: false });
  });

  it('has the labels and hints of every kind in the table in both languages', () => {
    const kinds = Object.keys(GATEWAY_FIELDS) as GatewayKind[];
    for (const texts of [en, fa]) {
      const fields = texts.gateways.fields as Record<string, Record<string, string>>;
      for (const kind of kinds) {
        const entry = gatewayFields(kind);
        if (!entry) continue;
        for (const name of ['key', 'keyHint', 'sender', 'senderHint'])
          expect(typeof fields[kind]?.[name]).toBe('string');
        if (entry.address === 'template')
          for (const name of ['baseUrl', 'baseUrlHint']) expect(typeof fields[kind]?.[name]).toBe('string');
      }
      expect(Object.keys(fields).sort()).toEqual(kinds.filter((kind) => gatewayFields(kind)).sort());
    }
  });
});

describe('the gateway dialog’s form', () => {
  const form = (change: Partial<GatewayForm>, from: Line['gateway'] = simulator): GatewayForm => ({
    ...formOf(from),
    ...change,
  });

  it('starts from the line as saved, an HTTP gateway’s request included, with no key typed', () => {
    expect(formOf(kannel)).toEqual({
      kind: 'http-gateway',
      baseUrl: kannel.base_url,
      apiKey: '',
      removeKey: false,
      sender: '3000123',
      rate: 20,
      method: 'GET',
      body: '',
      contentType: 'application/x-www-form-urlencoded',
      customType: false,
      success: '',
    });
    const custom = formOf({
      ...kannel,
      http: { method: 'POST', body: 'x', content_type: 'application/vnd.gw+json', success: 'ok' },
    });
    expect(custom).toMatchObject({ method: 'POST', contentType: 'application/vnd.gw+json', customType: true });
    // Another kind's line starts with a GET and a form's type, should it become an HTTP gateway.
    expect(formOf(simulator)).toMatchObject({ method: 'GET', contentType: 'application/x-www-form-urlencoded' });
  });

  it('sends a provider kind’s fields, trimmed, and the key only when typed or removed', () => {
    const smsir = form({ kind: 'smsir', baseUrl: ' ', sender: ' 30004505 ', apiKey: 'k-1', method: 'POST' });
    expect(gatewayInputOf('30001111', smsir)).toEqual({
      number: '30001111',
      kind: 'smsir',
      base_url: '',
      sender: '30004505',
      rate_per_second: 5,
      api_key: 'k-1',
    });
    expect(gatewayInputOf('30001111', { ...smsir, apiKey: '' })).not.toHaveProperty('api_key');
    expect(gatewayInputOf('30001111', { ...smsir, apiKey: '', removeKey: true })).toMatchObject({ api_key: '' });
    expect(gatewayInputOf('acme_bot', form({ kind: 'bale-safir', sender: '1234567890' }))).toMatchObject({
      kind: 'bale-safir',
      sender: '1234567890',
    });
    expect(gatewayInputOf('30001111', form({ kind: 'simulator' }, kannel))).toEqual({
      number: '30001111',
      kind: 'simulator',
    });
  });

  it('sends an HTTP gateway’s request: method, body, its type and the success pattern', () => {
    const post = form(
      {
        method: 'POST',
        body: '{"to": "{to}", "text": "{text}"}',
        contentType: ' application/json ',
        success: '"ok":\\s*true',
      },
      kannel,
    );
    expect(gatewayInputOf('30001111', post)).toEqual({
      number: '30001111',
      kind: 'http-gateway',
      base_url: kannel.base_url,
      sender: '3000123',
      rate_per_second: 20,
      http: {
        method: 'POST',
        body: '{"to": "{to}", "text": "{text}"}',
        content_type: 'application/json',
        success: '"ok":\\s*true',
      },
    });
  });

  it('tells a changed form from the saved one, the request counting only for an HTTP gateway', () => {
    expect(formChanged(formOf(kannel), kannel)).toBe(false);
    expect(formChanged(form({ baseUrl: `${kannel.base_url}/` }, kannel), kannel)).toBe(false);
    expect(formChanged(form({ success: '^0:' }, kannel), kannel)).toBe(true);
    expect(formChanged(form({ method: 'POST' }, kannel), kannel)).toBe(true);
    // A GET's body and type are not sent: typing them changes nothing yet.
    expect(formChanged(form({ body: 'x', contentType: 'text/plain' }, kannel), kannel)).toBe(false);
    expect(formChanged(form({ kind: 'smsir' }, kannel), kannel)).toBe(true);
    const smsir: Line['gateway'] = { ...simulator, kind: 'smsir', key_set: true };
    expect(formChanged(form({ method: 'POST' }, smsir), smsir)).toBe(false);
    expect(formChanged(form({ apiKey: 'new' }, smsir), smsir)).toBe(true);
  });

  it('says when the kept key is forgotten, and what keeps a form from being saved', () => {
    expect(keyForgottenOnSave(form({ baseUrl: 'http://127.0.0.1:1/send?to={to}&text={text}' }, kannel), kannel)).toBe(
      true,
    );
    expect(keyForgottenOnSave(form({ sender: '1' }, kannel), kannel)).toBe(false);
    expect(keyForgottenOnSave(form({ kind: 'smsir', apiKey: 'k' }, kannel), kannel)).toBe(false);
    expect(formProblem(form({}, kannel))).toBeNull();
    expect(formProblem(form({ rate: '' }, kannel))).toBe('rate');
    expect(formProblem(form({ rate: 5_000 }, kannel))).toBe('rate');
    expect(formProblem(form({ method: 'POST', contentType: ' ', customType: true }, kannel))).toBe('contentType');
    expect(formProblem(form({ method: 'GET', contentType: '' }, kannel))).toBeNull();
    expect(formProblem(form({ kind: 'simulator', rate: '' }, kannel))).toBeNull();
  });

  it('names the offered body types, any other as typed', () => {
    expect(contentTypeChoice('application/json')).toBe('json');
    expect(contentTypeChoice('application/x-www-form-urlencoded')).toBe('form');
    expect(contentTypeChoice('text/plain')).toBe('text');
    expect(contentTypeChoice('application/json; charset=utf-8')).toBe('custom');
  });

  it('puts a placeholder where the caret is, over the selection', () => {
    expect(insertAt('to=&text=', 3, 3, '{to}')).toEqual({ value: 'to={to}&text=', caret: 7 });
    expect(insertAt('to=XX', 3, 5, '{to}')).toEqual({ value: 'to={to}', caret: 7 });
    expect(insertAt('abc', 99, 99, '{key}')).toEqual({ value: 'abc{key}', caret: 8 });
  });
});
