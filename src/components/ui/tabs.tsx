import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<Value extends string> {
  value: Value;
  label: ReactNode;
}

export interface TabsProps<Value extends string> {
  /** What the tabs switch between, for screen readers ("Document"). */
  label: string;
  tabs: readonly TabItem<Value>[];
  selected: Value;
  onSelect: (value: Value) => void;
  /** The selected tab's content. */
  children: ReactNode;
}

/**
 * Tabs after the WAI-ARIA pattern: one tab stop for the row (the selected tab), the arrow keys,
 * Home and End move between tabs and show each at once, and the panel is named by its tab.
 */
export function Tabs<Value extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: TabsProps<Value>) {
  const id = useId();
  const tabIds = (value: Value) => `${id}-tab-${value}`;
  const panelId = `${id}-panel`;
  const listRef = useRef<HTMLDivElement>(null);

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.value === selected);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const value = tabs[next]!.value;
    onSelect(value);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabIds(value))}`)?.focus();
  };

  return (
    <>
      <div
        ref={listRef}
        role="tablist"
        aria-label={label}
        onKeyDown={move}
        className="mb-4 flex gap-1 overflow-x-auto border-b border-gray-200"
      >
        {tabs.map((tab) => {
          const active = tab.value === selected;
          return (
            <button
              key={tab.value}
              type="button"
              role="tab"
              id={tabIds(tab.value)}
              aria-selected={active}
              aria-controls={active ? panelId : undefined}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(tab.value)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-primary-600 ${
                active
                  ? 'border-primary-600 text-primary-700'
                  : 'border-transparent text-gray-600 hover:text-gray-900'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabIds(selected)}>
        {children}
      </div>
    </>
  );
}
