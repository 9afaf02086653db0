/**
 * A version 1 CA (no extensions at all: `openssl x509 -req -signkey` makes
 * one so, and kubectl's own suite runs its API server and controller manager
 * with such a CA and an `openssl genrsa` key) with its key in SEC1 form
 * (`EC PRIVATE KEY`, `openssl ecparam -genkey`), and a client certificate it
 * issued (CN v1-user, O dev; valid 2026-12-07 to 2046). Throw-away keys,
 * made for these tests.
 */

export const v1RootPEM = `-----BEGIN CERTIFICATE-----
MIIBHjCBxQIUE2z6LvD978K9lYZ7uKQm8MrQSrMwCgYIKoZIzj0EAwIwEjEQMA4G
A1UEAwwHdjEtcm9vdDAeFw0yNjEyMDcxOTQ5NDRaFw00NjEyMDIxOTQ5NDRaMBIx
EDAOBgNVBAMMB3YxLXJvb3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQhPf6z
/k7lMuJntUsYXyRezWkiA7wLBV6O8I/in+FzkNGfP1Z37cwZdFUpF/gGgfvrljk/
rTmdg4sgKnwLHIqFMAoGCCqGSM49BAMCA0gAMEUCIQCtb0D/iH4RQ0dSPy/GUryC
R//91sTF6FjdxSRj1w3KkQIgFzRJNCdU99xeyvdBuwSjbQ8kSBgr90Ox1LxHstyg
3uY=
-----END CERTIFICATE-----
`;
export const v1RootKeyPEM = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIJt8Rn2pQonGzDehD/NKAX8gu5H3J/nk8WrXnPkdxHIsoAoGCCqGSM49
AwEHoUQDQgAEIT3+s/5O5TLiZ7VLGF8kXs1pIgO8CwVejvCP4p/hc5DRnz9Wd+3M
GXRVKRf4BoH765Y5P605nYOLICp8CxyKhQ==
-----END EC PRIVATE KEY-----
`;
export const v1LeafPEM = `-----BEGIN CERTIFICATE-----
MIIBrjCCAVSgAwIBAgIUVVniJmBCyXNklZ8hyzAKWnq5QdcwCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHdjEtcm9vdDAeFw0yNjEyMDcxOTQ5NDRaFw00NjAyMDUxOTQ5
NDRaMCAxEDAOBgNVBAMMB3YxLXVzZXIxDDAKBgNVBAoMA2RldjBZMBMGByqGSM49
AgEGCCqGSM49AwEHA0IABJbc5V5Ghu2657MOtVkE7kvloTbbdM/KEg5F8JQn1Cj+
4+6cE//NRkX0XRV+e6O63F9IWvQptzdMeJ3aqBt3NfijejB4MBMGA1UdJQQMMAoG
CCsGAQUFBwMCMAkGA1UdEwQCMAAwHQYDVR0OBBYEFDXnRMFShCnU15+1JOZF4N/u
jd7IMDcGA1UdIwQwMC6hFqQUMBIxEDAOBgNVBAMMB3YxLXJvb3SCFBNs+i7w/e/C
vZWGe7ikJvDK0EqzMAoGCCqGSM49BAMCA0gAMEUCIGnr+rYzzi2laj2SwgHvQql/
+XGLVmdOCDBNhrpm70LGAiEAoyvtjbu2M/SwTu7+275zeifGWKRB+4DgA/Novwwd
QZE=
-----END CERTIFICATE-----
`;
export const v1LeafKeyPEM = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIGncFsvDj3XIQPQMEH0h+MRoINXuiyncUKKyZZpPMf+ooAoGCCqGSM49
AwEHoUQDQgAEltzlXkaG7brnsw61WQTuS+WhNtt0z8oSDkXwlCfUKP7j7pwT/81G
RfRdFX57o7rcX0ha9Cm3N0x4ndqoG3c1+A==
-----END EC PRIVATE KEY-----
`;
