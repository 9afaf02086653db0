/**
 * Fixed key material for the differential kubectl steps: a self-signed
 * serving certificate and key (for `create secret tls`) and a PKCS#10
 * request (for the CertificateSigningRequest steps), made once with openssl
 * so that both runs of a step read the same bytes.
 */

export const tlsCert = `-----BEGIN CERTIFICATE-----
MIIBizCCATGgAwIBAgIUYOIMEetmDLsaKTzwo/Xvnsof+PswCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPd2ViLmV4YW1wbGUuY29tMCAXDTI2MTIwNTA5MjExM1oYDzIx
MjYxMTExMDkyMTEzWjAaMRgwFgYDVQQDDA93ZWIuZXhhbXBsZS5jb20wWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAATxApkuFAZbg/RnOI32463AyFDBDoEZF2fERnWw
QU1+pyKTju/HN+vX0JT2CEQ12hkp6/K0mcY5fZ1eNYh9pBOao1MwUTAdBgNVHQ4E
FgQUEeq2uc92nZKGuVPBgM4T3M8WXw8wHwYDVR0jBBgwFoAUEeq2uc92nZKGuVPB
gM4T3M8WXw8wDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiA5tpPY
Tmt1XSHpJPrDccWVkPaF/beOFU2c+j9G9DGcIwIhANt/+Y80EHvi48ubnyVZGqoc
zlNEXGEd4diXGwKOpzmX
-----END CERTIFICATE-----
`;

export const tlsKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgbvLLAqBW5dGy6T9z
rsaZZaksvcHE9Sy7OeOzyK+T+qmhRANCAATxApkuFAZbg/RnOI32463AyFDBDoEZ
F2fERnWwQU1+pyKTju/HN+vX0JT2CEQ12hkp6/K0mcY5fZ1eNYh9pBOa
-----END PRIVATE KEY-----
`;

/** base64 of a PEM CSR for CN=jane, O=dev (P-256). */
export const janeCsr =
  'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIV01IOENBUUF3SFRFTk1Bc0dBMVVFQXd3RWFtRnVaVEVNTUFvR0ExVUVDZ3dEWkdWMk1Ga3dFd1lIS29aSQp6ajBDQVFZSUtvWkl6ajBEQVFjRFFnQUVEaFdKQkpHSlN3Q29TM29WSU9kODFlbGwvd1NyK1NOVU5FMjRsZkoyCnp0VjBKcCtrQ01odGRRcVZYZkFEUEhPL1NpSG1XNWUzNm43TnJ4aUFpSWh3aEtBQU1Bb0dDQ3FHU000OUJBTUMKQTBjQU1FUUNJQjlmRmxoSExOcUNTWHQvWDZUbm9GWnBoUXkvT1ltWi9seU9tWWc5QmJneUFpQmR0Sng2dTlFeApsdFprOWVJbW5QK1A5ZjBlbE9SNUU5S0Z5MjVvYzBmRVl3PT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==';

/** A Deployment whose pods match no node (`disktype: none`): it stays Pending and its rollout never finishes. */
export const pendingWebDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeSelector:
        disktype: none
      containers:
      - name: nginx
        image: nginx:1.25
`;
