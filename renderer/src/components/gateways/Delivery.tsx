// Who will deliver a send, as its confirmation says it: "through Kavenegar" for a line on a
// provider account (real phones, real money at the provider), "on the simulator (nothing reaches
// phones)" otherwise. The kind is the gateways store's (kept fresh by pushes and Settings), with
// the line as the confirming form read it until that store has answered.
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useStores } from '../../stores/context';
import { gatewaysSelectors } from '../../stores/gateways';
import { gatewayName } from '../../lib/gateways';
import { useLanguage } from '../../i18n/useLanguage';
import { isUpstream, type GatewayKind } from '../../../../shared/gateways';

/** The kind of gateway of the line `sender` as last known. */
export function useGatewayKind(sender: string, fallback: GatewayKind | undefined): GatewayKind | undefined {
  return useStore(useStores().gateways, gatewaysSelectors.kindOf(sender, fallback));
}

/** The phrase alone ("through Kavenegar"), in the UI's language. */
export function useDeliveryPhrase(kind: GatewayKind | undefined): string {
  const { t } = useTranslation();
  const language = useLanguage();
  if (kind === undefined) return '';
  return isUpstream(kind)
    ? t('gateways.confirm.through', { provider: gatewayName(kind, language) })
    : t('gateways.confirm.simulator');
}

/**
 * The phrase as a confirmation shows it: the simulator's in orange (a rehearsal), a provider's in
 * the text's colour. `data-gateway` carries the kind for tests.
 */
export function Delivery({ sender, kind: fallback, testId }: { sender: string; kind?: GatewayKind; testId?: string }) {
  const kind = useGatewayKind(sender, fallback);
  const phrase = useDeliveryPhrase(kind);
  if (kind === undefined) return null;
  return (
    <Text
      component="span"
      inherit
      c={isUpstream(kind) ? undefined : 'orange.8'}
      data-testid={testId}
      data-gateway={kind}
    >
      {phrase}
    </Text>
  );
}
