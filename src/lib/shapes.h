/* shapes.h - placeholder */
