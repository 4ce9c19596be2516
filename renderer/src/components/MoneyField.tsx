// An amount typed in the unit the person chose (rials or tomans, Settings → General), held in
// rials: the form that owns it reads and bounds rials, as the service does. The label says the
// unit; tomans may carry a tenth (a rial).
import { inUnit, toRials } from '../lib/money';
import { useMoney } from './Money';
import { NumberField, type NumberFieldProps } from './NumberField';

export interface MoneyFieldProps extends Omit<NumberFieldProps, 'value' | 'onChange' | 'min' | 'max' | 'label'> {
  /** The label, given the unit's name to say. */
  label: (unitName: string) => string;
  /** '' while the field is empty. */
  rials: number | '';
  onChange(rials: number | ''): void;
  minRials?: number;
  maxRials?: number;
}

export function MoneyField({ label, rials, onChange, minRials, maxRials, ...rest }: MoneyFieldProps) {
  const { unit, unitName } = useMoney();
  return (
    <NumberField
      {...rest}
      label={label(unitName)}
      value={rials === '' ? '' : inUnit(rials, unit)}
      onChange={(value) => onChange(value === '' ? '' : toRials(value, unit))}
      min={minRials === undefined ? undefined : inUnit(minRials, unit)}
      max={maxRials === undefined ? undefined : inUnit(maxRials, unit)}
      allowDecimal={unit === 'tomans'}
      data-unit={unit}
    />
  );
}
