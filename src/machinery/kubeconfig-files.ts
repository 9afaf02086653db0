/**
 * Files a kubeconfig names (`certificate-authority`, `client-certificate`,
 * `client-key`, `tokenFile`), read as client-go's loader reads them: a
 * relative path is relative to the directory of the kubeconfig itself, not
 * to the process or to whatever file named the kubeconfig. The core reads
 * no files: hosts that have files (the Node host) hand in a reader; where
 * there is none (the browser) a reference fails with a message pointing to
 * the inline form (`certificate-authority-data`, `token`).
 */

export type ReadFile = (path: string) => string;

/** Where a kubeconfig's files are read from: the kubeconfig's own path and the host's reader, if any. */
export interface KubeconfigFiles {
  /** Path of the kubeconfig (as the host names it); relative references resolve against its directory. */
  path: string;
  /** Reads a file; absent where there are no files. */
  read?: ReadFile;
}

/** `ref` resolved against the kubeconfig's directory (POSIX paths; an absolute reference stays as it is). */
export function resolveAgainstKubeconfig(kubeconfigPath: string, ref: string): string {
  if (ref.startsWith('/')) return ref;
  const slash = kubeconfigPath.lastIndexOf('/');
  return slash < 0 ? ref : `${kubeconfigPath.slice(0, slash + 1)}${ref}`;
}

const inlineForm: Record<string, string> = {
  'certificate-authority': 'certificate-authority-data',
  'client-certificate': 'client-certificate-data',
  'client-key': 'client-key-data',
  tokenFile: 'token',
};

/**
 * The contents of the file a kubeconfig field names. `owner` says whose
 * field it is (`cluster "webhook"`), as client-go's validation messages do.
 */
export function readKubeconfigFile(
  files: KubeconfigFiles | undefined,
  field: string,
  ref: string,
  owner: string,
): string {
  if (files?.read === undefined)
    throw new Error(
      `${field}: ${ref}: this host has no files to read; give the contents in ${inlineForm[field] ?? `${field}-data`} instead`,
    );
  const path = resolveAgainstKubeconfig(files.path, ref);
  try {
    return files.read(path);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`invalid configuration: unable to read ${field} ${path} for ${owner} due to ${why}`);
  }
}
