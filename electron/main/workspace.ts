// Which workspace folder the desktop app opens. The app's user data folder is the same one
// `serve` uses by default (workspace/paths.ts), so the window and the headless service share their
// data. A folder chosen in Settings is remembered in workspace.json there and used from the next
// start on.
import fs from 'node:fs';
import path from 'node:path';

interface Pointer {
  data_dir?: string;
  next_data_dir?: string | null;
}

export class WorkspaceLocation {
  private readonly file: string;

  constructor(private readonly userData: string) {
    this.file = path.join(userData, 'workspace.json');
  }

  private read(): Pointer {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Pointer;
    } catch {
      return {};
    }
  }

  private write(pointer: Pointer): void {
    fs.mkdirSync(this.userData, { recursive: true });
    fs.writeFileSync(`${this.file}.part`, JSON.stringify(pointer, null, 2));
    fs.renameSync(`${this.file}.part`, this.file);
  }

  /** The folder to open now; a pending choice becomes current here. */
  open(): string {
    const pointer = this.read();
    if (pointer.next_data_dir) {
      this.write({ data_dir: pointer.next_data_dir, next_data_dir: null });
      return pointer.next_data_dir;
    }
    return pointer.data_dir ?? this.userData;
  }

  next(): string | null {
    return this.read().next_data_dir ?? null;
  }

  setNext(dir: string): void {
    this.write({ ...this.read(), next_data_dir: dir });
  }
}
