"""What the Python benchmark drivers share."""
import os
import subprocess


def release_binary(product, package_path="."):
    """Builds `product` in release mode and returns the path of its executable."""
    print(f"==> swift build -c release --product {product}", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--package-path", package_path, "--product", product], check=True)
    folder = subprocess.run(["swift", "build", "-c", "release", "--package-path", package_path, "--show-bin-path"],
                            capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(folder, product)
