# The container image (Containerfile): `make test-image` builds it without a container engine
# (deploy/build-image.sh: a Debian base made by mmdebstrap, the Containerfile carried out in
# chroots by deploy/oci_build.py, layers and config by umoci), exports
# build/image/tavla-engine.oci.tar, runs the server inside it and health-checks it (needs root;
# installs mmdebstrap, umoci, skopeo and eatmydata with apt-get, never upgrading a package).
TEST_TARGETS += test-image
.PHONY: test-image image base-lock

image test-image: .venv-test/.installed
	HEALTH_PYTHON=.venv-test/bin/python deploy/build-image.sh

# Rewrite deploy/base-packages.lock (the Debian packages of the base, exact versions) from a fresh
# base: when the Debian mirror has moved on and test-image says the base differs from the lock.
base-lock:
	WRITE_BASE_LOCK=deploy/base-packages.lock deploy/build-image.sh
