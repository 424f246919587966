"""Host-side runtime support: graph loading, generators and CPU reference algorithms."""
