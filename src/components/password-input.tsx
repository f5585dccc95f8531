import { Eye, EyeOff } from 'lucide-react';
import { useState, type InputHTMLAttributes } from 'react';
import { controlClass } from './ui/form-field.tsx';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  id: string;
  /** Marks the field red while it holds an error (`FormField` passes it). */
  invalid?: boolean;
}

/**
 * A password field with a show/hide toggle (product-spec §2 and §5). The toggle is a real button
 * with an accessible name that says what it will do, so it works by keyboard and screen reader.
 */
export function PasswordInput({ invalid = false, className = '', ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const Icon = visible ? EyeOff : Eye;
  return (
    <div className="relative">
      <input
        {...props}
        type={visible ? 'text' : 'password'}
        className={`${controlClass(invalid)} pr-10 ${className}`}
      />
      <button
        type="button"
        onClick={() => setVisible((shown) => !shown)}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-controls={props.id}
        className="absolute inset-y-0 right-0 flex items-center rounded-r-md px-3 text-gray-500 hover:text-gray-700 focus-visible:outline-2 focus-visible:outline-primary-600"
      >
        <Icon className="h-4 w-4" aria-hidden="true" />
      </button>
    </div>
  );
}
