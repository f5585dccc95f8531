import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { EllipsisVertical, type LucideIcon } from 'lucide-react';
import { useRef } from 'react';

export interface ActionMenuItem {
  /** What the item does, one or two words ("Edit Properties"). */
  label: string;
  icon: LucideIcon;
  onSelect: () => void;
  /** `destructive` for an item that removes something (Delete), drawn apart in red. */
  tone?: 'destructive';
}

export interface ActionMenuProps {
  /** The button's accessible name, naming its object: "Actions for Budget 2026.pdf". */
  label: string;
  items: readonly ActionMenuItem[];
}

/**
 * A row's actions as one menu (Headless UI's `Menu`: the WAI-ARIA menu button, with arrow keys,
 * typing a letter, Escape and the focus returned to the button): one button that takes no more
 * room than an icon, whatever the number of actions, and a list whose items are 44 px tall on
 * a phone, where a finger needs that much. The list is anchored to the button outside any
 * scrolling box, so a table that scrolls sideways does not cut it off.
 */
export function ActionMenu({ label, items }: ActionMenuProps) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <Menu>
      <MenuButton
        ref={buttonRef}
        aria-label={label}
        title="Actions"
        className="inline-flex h-11 w-11 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600 data-open:bg-gray-100 sm:h-9 sm:w-9"
      >
        <EllipsisVertical className="h-5 w-5" aria-hidden="true" />
      </MenuButton>
      <MenuItems
        anchor={{ to: 'bottom end', gap: 4, padding: 8 }}
        modal={false}
        className="z-50 min-w-48 rounded-md border border-gray-200 bg-white py-1 shadow-lg focus:outline-none"
      >
        {items.map(({ label: itemLabel, icon: Icon, onSelect, tone }) => (
          <MenuItem key={itemLabel}>
            <button
              type="button"
              onClick={() => {
                // The focus goes back to the menu's button before the item acts: a dialog the
                // item opens then gives the focus back to it when it closes, not to the list
                // that has gone.
                buttonRef.current?.focus();
                onSelect();
              }}
              className={`flex min-h-11 w-full items-center gap-3 px-4 text-left text-sm data-focus:bg-gray-100 sm:min-h-9 ${
                tone === 'destructive'
                  ? 'border-t border-gray-100 text-destructive-700'
                  : 'text-gray-800'
              }`}
            >
              <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
              {itemLabel}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
