// React access to the stores: one provider at the root, and `useStores()` + zustand's `useStore`
// with narrow selectors in components.
import { createContext, useContext, type ReactNode } from 'react';
import type { Stores } from './index';

const StoresContext = createContext<Stores | null>(null);

export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside StoresProvider');
  return stores;
}
